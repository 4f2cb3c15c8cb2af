#!/usr/bin/env bash
# Builds dist/kidcoder_VERSION_ARCH.deb from build/bin with dpkg-deb alone:
# no network, no debhelper. `make package` runs it after `make build`.
# Usage: VERSION=0.1.0 packaging/build-deb.sh
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

version=${VERSION:?VERSION is required (make package sets it from the Makefile)}
arch=$(dpkg --print-architecture)
maintainer=${MAINTAINER:-$(sed -n 's/^ -- \(.*>\)  .*/\1/p' packaging/debian/changelog | head -n1)}
out=dist/kidcoder_${version}_${arch}.deb
linux=build/linux

die() { echo "build-deb: $*" >&2; exit 1; }

for f in build/bin/kidcoder build/bin/kidcoder-gui; do
  [ -x "$f" ] || die "$f is missing: run make build first"
done
# The package version follows the binary's, and the changelog and AppStream
# releases must describe it: a package whose metadata names another release
# would mislead the software centre and apt.
built=$(build/bin/kidcoder version | awk '{print $2}')
[ "$built" = "$version" ] || die "build/bin/kidcoder is version $built, not $version: run make build"
[ "$(sed -n '1s/^kidcoder (\([^)]*\)).*/\1/p' packaging/debian/changelog)" = "$version" ] ||
  die "packaging/debian/changelog has no entry for $version at the top: add one"
grep -q "<release version=\"$version\"" "$linux/org.kidcoder.classroom.metainfo.xml" ||
  die "$linux/org.kidcoder.classroom.metainfo.xml has no <release version=\"$version\">: add one"
[ "$(sha256sum build/appicon.svg | cut -d' ' -f1)" = "$(cat $linux/icons/SOURCE.sha256)" ] ||
  die "build/appicon.svg changed since the PNG icons were rendered: run packaging/render-icons.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root

install -D -m 0755 build/bin/kidcoder "$root/usr/bin/kidcoder"
# The GUI sits beside the CLI because `kidcoder` with no arguments starts the
# kidcoder-gui found next to its own executable (docs/contracts.md §1).
install -D -m 0755 build/bin/kidcoder-gui "$root/usr/bin/kidcoder-gui"
install -D -m 0644 "$linux/org.kidcoder.classroom.desktop" "$root/usr/share/applications/org.kidcoder.classroom.desktop"
install -D -m 0644 "$linux/org.kidcoder.classroom.metainfo.xml" "$root/usr/share/metainfo/org.kidcoder.classroom.metainfo.xml"
for png in "$linux"/icons/hicolor/*/apps/kidcoder.png; do
  rel=${png#"$linux/icons/"}
  install -D -m 0644 "$png" "$root/usr/share/icons/$rel"
done
install -D -m 0644 build/appicon.svg "$root/usr/share/icons/hicolor/scalable/apps/kidcoder.svg"

for lang in "" zh_CN; do
  src=$linux/man/${lang:+$lang/}kidcoder.1
  dir=$root/usr/share/man/${lang:+$lang/}man1
  install -d -m 0755 "$dir"
  gzip -9n <"$src" >"$dir/kidcoder.1.gz"
  chmod 0644 "$dir/kidcoder.1.gz"
  ln -s kidcoder.1.gz "$dir/kidcoder-gui.1.gz"
done

# The AppArmor profile ships inert under /usr/share; the postinst installs
# and loads it only where AppArmor restricts user namespaces (Ubuntu 23.10
# and later; docs/sandbox-limits.md).
install -D -m 0644 packaging/apparmor/kidcoder "$root/usr/share/kidcoder/apparmor/kidcoder"

doc=$root/usr/share/doc/kidcoder
install -d -m 0755 "$doc"
gzip -9n <packaging/debian/changelog >"$doc/changelog.gz"
packaging/copyright.py packaging/debian/copyright-head frontend build/bin/kidcoder build/bin/kidcoder-gui >"$doc/copyright"
chmod 0644 "$doc/changelog.gz" "$doc/copyright"

# Lintian overrides for what the Makefile's build choices cause, each only
# while it applies: the headless command is pure Go on purpose (no C
# libraries, docs/contracts.md §1), and Go links non-PIE unless told otherwise.
overrides=""
for exe in kidcoder kidcoder-gui; do
  f=$root/usr/bin/$exe
  if ! readelf -lW "$f" | grep -q 'Requesting program interpreter'; then
    overrides+="# Pure Go, built with CGO_ENABLED=0: no shared libraries to load.
kidcoder: statically-linked-binary [usr/bin/$exe]
"
  elif readelf -hW "$f" | grep -q 'Type:[[:space:]]*EXEC'; then
    overrides+="# Go's default build mode on linux/amd64; the Makefile's build targets choose it.
kidcoder: hardening-no-pie [usr/bin/$exe]
"
  fi
done
if [ -n "$overrides" ]; then
  install -d -m 0755 "$root/usr/share/lintian/overrides"
  printf '%s' "$overrides" >"$root/usr/share/lintian/overrides/kidcoder"
  chmod 0644 "$root/usr/share/lintian/overrides/kidcoder"
fi

# Libraries the GUI links, with the versions this build needs.
if command -v dpkg-shlibdeps >/dev/null; then
  mkdir -p "$tmp/src/debian"
  printf 'Source: kidcoder\n\nPackage: kidcoder\nArchitecture: any\n' >"$tmp/src/debian/control"
  shlibs=$(cd "$tmp/src" && dpkg-shlibdeps -O -e "$root/usr/bin/kidcoder-gui" 2>"$tmp/shlibdeps.log") ||
    { cat "$tmp/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
  shlibs=${shlibs#shlibs:Depends=}
else
  # What dpkg-shlibdeps computes for this GUI on Debian 12.
  echo "build-deb: dpkg-shlibdeps not found (apt install dpkg-dev); using the GUI's libraries as found on Debian 12" >&2
  shlibs="libc6 (>= 2.34), libgdk-pixbuf-2.0-0 (>= 2.22.0), libglib2.0-0 (>= 2.16.0), libgtk-3-0 (>= 3.21.4), libjavascriptcoregtk-4.1-0, libsoup-3.0-0 (>= 2.4.0), libwebkit2gtk-4.1-0 (>= 2.39.91)"
fi
[ -n "$shlibs" ] || die "no library dependencies found for kidcoder-gui"

install -d -m 0755 "$root/DEBIAN"
size=$(du -sk --apparent-size "$root/usr" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@SIZE@|$size|" -e "s|@DEPENDS@|bubblewrap, python3 (>= 3.8), $shlibs|" \
    packaging/debian/control.in >"$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
install -m 0755 packaging/debian/postinst packaging/debian/postrm "$root/DEBIAN/"

# Same sources, same package: file times come from the last commit.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
find "$root" -depth -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p dist
rm -f "$out"
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
echo "$out"

if command -v lintian >/dev/null; then
  lintian --info --fail-on error "$out"
fi
