#!/usr/bin/env bash
# Packages the Linux desktop binary (Wails, GTK, WebKitGTK 4.1) as a .deb
# (dpkg-deb) and a .tar.gz. Called by `make dist-linux`.
# Usage: dist/linux/package.sh BINARY VERSION OUTDIR
set -euo pipefail
bin=$1 version=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
stage=$(mktemp -d -t cairn-pkg-XXXXXX)
trap 'rm -rf "$stage"' EXIT

# Runtime dependencies: the Debian packages that ship the shared libraries
# the binary links directly (libgtk-3-0, libwebkit2gtk-4.1-0, ...), found
# with dpkg -S from its ELF NEEDED entries.
depends=$(objdump -p "$bin" | awk '/NEEDED/ {print $2}' | while read -r lib; do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
  [ -n "$path" ] || { echo "package: $lib not found" >&2; exit 1; }
  dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -n1 | cut -d: -f1 ||
    dpkg -S "$path" | head -n1 | cut -d: -f1
done | sort -u | paste -sd, | sed 's/,/, /g')
[ -n "$depends" ] || { echo "package: no dependencies found for $bin" >&2; exit 1; }

# .deb: /usr/bin/cairn (the desktop app and every command), a desktop entry,
# the icon, the copyright file.
deb=$stage/deb
install -Dm755 "$bin" "$deb/usr/bin/cairn"
install -Dm644 "$root/dist/linux/cairn.desktop" "$deb/usr/share/applications/cairn.desktop"
install -Dm644 "$root/assets/brand/icon-256.png" "$deb/usr/share/icons/hicolor/256x256/apps/cairn.png"
install -Dm644 "$root/assets/brand/cairn.svg" "$deb/usr/share/icons/hicolor/scalable/apps/cairn.svg"
install -d "$deb/usr/share/doc/cairn"
cat >"$deb/usr/share/doc/cairn/copyright" <<TXT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: cairn
Files: *
Copyright: Cairn contributors
TXT
size=$(du -sk "$deb/usr" | cut -f1)
install -d "$deb/DEBIAN"
cat >"$deb/DEBIAN/control" <<CTL
Package: cairn
Version: $version
Architecture: amd64
Maintainer: Cairn maintainers <cairn@localhost>
Installed-Size: $size
Depends: $depends
Recommends: tesseract-ocr
Suggests: tesseract-ocr-chi-sim, tesseract-ocr-jpn
Section: utils
Priority: optional
Description: ask questions of your own documents, offline
 Cairn reads PDFs, Word files, text and Markdown into a project, draws a
 mind map of every document and a knowledge graph, and answers questions
 with citations to the page. Everything stays on this machine; a local
 Ollama server is used when one is running. Install tesseract-ocr to read
 scanned pages.
CTL
(cd "$deb" && find usr -type f -exec md5sum {} + >DEBIAN/md5sums)
dpkg-deb --root-owner-group -Zxz --build "$deb" "$out/cairn_${version}_amd64.deb" >/dev/null

# .tar.gz: the same files in one folder, to unpack anywhere.
name=cairn-$version-linux-amd64
tgz=$stage/$name
install -Dm755 "$bin" "$tgz/cairn"
install -m644 "$root/dist/linux/cairn.desktop" "$root/assets/brand/icon-256.png" "$tgz/"
mv "$tgz/icon-256.png" "$tgz/cairn.png"
cat >"$tgz/README.txt" <<TXT
Cairn $version for Linux x64.

Needs the GTK 3 and WebKitGTK 4.1 runtime (Debian/Ubuntu: $depends).
Run ./cairn to open the app, or ./cairn help for the command line.
To add it to your application menu:
  install -Dm755 cairn ~/.local/bin/cairn
  install -Dm644 cairn.png ~/.local/share/icons/hicolor/256x256/apps/cairn.png
  install -Dm644 cairn.desktop ~/.local/share/applications/cairn.desktop
TXT
tar -C "$stage" --owner=0 --group=0 -czf "$out/$name.tar.gz" "$name"
echo "package: $out/cairn_${version}_amd64.deb (Depends: $depends), $out/$name.tar.gz"
