-- Version 17: reserved. Another branch (OCR) holds migration 17; this no-op
-- keeps the versions contiguous for 18 until it lands, and is replaced by
-- it then.
SELECT 1;
