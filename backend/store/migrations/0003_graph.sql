-- Reserved: filled in by the issue that owns these tables.
SELECT 1;
