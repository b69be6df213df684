#!/usr/bin/env bash
# Runs Wine's wineserver (e.g. -w: wait until the prefix is idle, -k: stop it).
ws=$(command -v wineserver || echo /usr/lib/wine/wineserver)
exec "$ws" "$@"
