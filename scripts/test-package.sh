#!/usr/bin/env bash
# Tests the Debian package the way a family meets it: inspect it, install it
# with apt, run the installed commands, double-click the menu entry (its Exec
# line under a private Xvfb) until the golden star shows, then remove it and
# check the child's lessons are still there. Leaves the package removed.
# Usage: scripts/test-package.sh dist/kidcoder_VERSION_ARCH.deb   (as root, or with sudo)
set -euo pipefail
cd "$(dirname "$0")/.."

deb=$(realpath "${1:?usage: scripts/test-package.sh dist/kidcoder_VERSION_ARCH.deb}")
art=$PWD/test-artifacts
mkdir -p "$art"
app_id=org.kidcoder.classroom

apt_get() { DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 -y -qq "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok   $*"; }
need() { command -v "$1" >/dev/null || fail "$1 is needed (${2:-make setup-test installs it})"; }
for t in dpkg-deb apt-get desktop-file-validate Xvfb xdotool xprop import convert; do need "$t"; done
sudo=""
if [ "$(id -u)" -ne 0 ]; then need sudo "installing a package needs root"; sudo="sudo"; fi

work=$(mktemp -d /tmp/kidcoder-package-test.XXXXXX)
gui_pid="" x_pid="" we_installed="" pulled=""
cleanup() {
  [ -n "$gui_pid" ] && kill -- "-$gui_pid" 2>/dev/null && wait "$gui_pid" 2>/dev/null
  [ -n "$x_pid" ] && kill "$x_pid" 2>/dev/null && wait "$x_pid" 2>/dev/null
  if [ -n "$we_installed" ]; then
    echo "cleanup: removing kidcoder $pulled" >&2
    apt_get remove kidcoder $pulled >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# ---------------------------------------------------------------- the file
field() { dpkg-deb -f "$deb" "$1"; }
version=$(field Version)
arch=$(field Architecture)
[ "$(field Package)" = kidcoder ] || fail "Package is $(field Package), not kidcoder"
[ "$(basename "$deb")" = "kidcoder_${version}_${arch}.deb" ] || fail "file name $(basename "$deb") does not match version $version and architecture $arch"
depends=$(field Depends)
for d in "bubblewrap" "python3 (>= 3.8)" "libwebkit2gtk-4.1-0" "libgtk-3-0" "libc6"; do
  [[ ", $depends," == *", $d"[\ ,]* ]] || fail "Depends lacks $d: $depends"
done
recommends=$(field Recommends)
for d in python3-matplotlib fonts-noto-cjk; do
  [[ "$recommends" == *"$d"* ]] || fail "Recommends lacks $d: $recommends"
done
ok "control: kidcoder $version $arch; Depends: $depends; Recommends: $recommends"

# Every member: owned by root, binaries 0755, data 0644, folders 0755,
# nothing outside /usr, and no loose Python files (the layer is inside the binary).
dpkg-deb -c "$deb" >"$work/contents"
awk '
  { mode=$1; owner=$2; path=$6 }
  owner != "root/root"                     { print "not owned by root: " path " (" owner ")"; bad=1 }
  path != "./" && path !~ /^\.\/usr\//      { print "outside /usr: " path; bad=1 }
  path ~ /\.py$/                           { print "loose Python file: " path; bad=1 }
  mode ~ /^d/ && mode != "drwxr-xr-x"      { print "folder mode " mode ": " path; bad=1 }
  mode ~ /^-/ && path ~ /^\.\/usr\/bin\// && mode != "-rwxr-xr-x" { print "binary mode " mode ": " path; bad=1 }
  mode ~ /^-/ && path !~ /^\.\/usr\/bin\// && mode != "-rw-r--r--" { print "data mode " mode ": " path; bad=1 }
  mode ~ /^l/ && path !~ /^\.\/usr\/share\/man\// { print "unexpected symlink: " path; bad=1 }
  END { exit bad }' "$work/contents" || fail "package members above have the wrong owner, mode or place"
files=(usr/bin/kidcoder usr/bin/kidcoder-gui
       usr/share/applications/$app_id.desktop usr/share/metainfo/$app_id.metainfo.xml
       usr/share/icons/hicolor/scalable/apps/kidcoder.svg
       usr/share/man/man1/kidcoder.1.gz usr/share/man/zh_CN/man1/kidcoder.1.gz
       usr/share/doc/kidcoder/copyright usr/share/doc/kidcoder/changelog.gz)
sizes=(16 22 24 32 48 64 128 256 512)
for n in "${sizes[@]}"; do files+=("usr/share/icons/hicolor/${n}x${n}/apps/kidcoder.png"); done
for f in "${files[@]}"; do grep -q " \./$f\( \|$\)" "$work/contents" || fail "the package lacks /$f"; done
dpkg-deb --ctrl-tarfile "$deb" | tar -tvf - >"$work/control-members"
awk '$2 != "root/root" { print; bad=1 }
  $1 ~ /^-/ && $6 ~ /^\.\/(postinst|postrm)$/ { if ($1 != "-rwxr-xr-x") { print; bad=1 }; next }
  $1 ~ /^-/ && $1 != "-rw-r--r--" { print; bad=1 }
  END { exit bad }' "$work/control-members" ||
  fail "control members above have the wrong owner or mode"
for f in postinst postrm; do
  grep -q " \./$f$" "$work/control-members" || fail "the package has no $f (the AppArmor profile's)"
done
ok "contents: $(grep -c . "$work/contents") members, all root-owned, modes 0755/0644, ${#files[@]} expected files present"

ex=$work/extract
dpkg-deb -x "$deb" "$ex"
desktop=$ex/usr/share/applications/$app_id.desktop
rc=0; desktop-file-validate "$desktop" >"$work/dfv.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] || grep -v ': hint: ' "$work/dfv.log" | grep -q .; then
  cat "$work/dfv.log"; fail "desktop-file-validate reported the problems above"
fi
for key in 'Name' 'Name\[zh_CN\]' 'Comment' 'Comment\[zh_CN\]' 'Icon' 'Exec' 'StartupWMClass'; do
  grep -q "^$key=." "$desktop" || fail "the desktop entry lacks $key"
done
grep -qx 'Categories=Education;Development;' "$desktop" || fail "the desktop entry's Categories are not Education;Development;"
icon=$(sed -n 's/^Icon=//p' "$desktop")
for n in "${sizes[@]}"; do
  png=$ex/usr/share/icons/hicolor/${n}x${n}/apps/$icon.png
  [ -f "$png" ] || fail "no ${n}x${n} icon named $icon"
  [ "$(identify -format '%wx%h' "$png")" = "${n}x${n}" ] || fail "$png is $(identify -format '%wx%h' "$png"), not ${n}x${n}"
done
ok "desktop entry valid; icon '$icon' in ${#sizes[@]} sizes, each of its stated size, and scalable"
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$ex/usr/share/metainfo/$app_id.metainfo.xml" >"$work/appstream.log" 2>&1 ||
    { cat "$work/appstream.log"; fail "appstreamcli validate failed"; }
  ok "appstreamcli validate: $(tail -n1 "$work/appstream.log")"
else
  echo "skip appstreamcli validate: appstreamcli is not installed (apt install appstream)"
fi
grep -q 'xml:lang="zh_CN"' "$ex/usr/share/metainfo/$app_id.metainfo.xml" || fail "the AppStream file has no zh_CN translation"
for page in usr/share/man/man1/kidcoder.1.gz usr/share/man/zh_CN/man1/kidcoder.1.gz; do
  zcat "$ex/$page" | grep -q '^\.TH KIDCODER 1' || fail "/$page is not the kidcoder(1) manual page"
  for cmd in run selftest version 'pack new' 'pack check' 'pack build' 'pack import'; do
    # Both in the synopsis and as an entry of the commands section.
    zcat "$ex/$page" | grep -q "^\.B kidcoder $cmd" || fail "/$page: '$cmd' is missing from the synopsis"
    zcat "$ex/$page" | grep -Eq "^\.BI? \"?$cmd( |\"|$)" || fail "/$page: '$cmd' is not described"
  done
done
if command -v groff >/dev/null; then
  zcat "$ex/usr/share/man/man1/kidcoder.1.gz" | groff -man -ww -z -Tutf8 >"$work/groff.log" 2>&1 || true
  [ ! -s "$work/groff.log" ] || { cat "$work/groff.log"; fail "groff warns about the manual page"; }
fi
grep -q 'github.com/wailsapp/wails/v2' "$ex/usr/share/doc/kidcoder/copyright" || fail "the copyright file does not list the bundled Go modules"
ok "AppStream metadata, manual pages (en, zh_CN) and copyright file"

# The AppArmor profile (docs/sandbox-limits.md, "Ubuntu 24.04 and later:
# AppArmor"): attached to Kid Coder's own programs only, unconfined but for
# the one rule it exists for. Comments aside, it is exactly this text.
profile=$ex/usr/share/kidcoder/apparmor/kidcoder
[ -f "$profile" ] || fail "the package lacks /usr/share/kidcoder/apparmor/kidcoder"
rules=$(sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$profile")
want='abi <abi/4.0>,
include <tunables/global>
profile kidcoder /usr/bin/kidcoder{,-gui} flags=(unconfined) {
userns,
include if exists <local/kidcoder>
}'
[ "$rules" = "$want" ] || fail "the AppArmor profile's rules are not exactly:
$want
but:
$rules"
# The sandbox's own check (sandbox/detect.go, appArmorAllowsBwrap) takes a
# profile in /etc/apparmor.d that names bwrap and has a userns line for one
# that lets bwrap make its namespaces.
grep -q bwrap "$profile" && grep -Eq '^[[:space:]]*userns\b' "$profile" ||
  fail "the sandbox's check would not take the AppArmor profile for one that allows bwrap"
dpkg-deb -e "$deb" "$work/control"
for f in postinst postrm; do
  sh -n "$work/control/$f" || fail "$f is not valid sh"
  grep -q '/etc/apparmor.d/kidcoder' "$work/control/$f" || fail "$f does not handle /etc/apparmor.d/kidcoder"
done
grep -q '/usr/share/kidcoder/apparmor/kidcoder' "$work/control/postinst" || fail "the postinst does not install the packaged profile"
ok "AppArmor profile: userns for /usr/bin/kidcoder{,-gui} only; postinst and postrm valid sh"
if command -v lintian >/dev/null; then
  lintian --fail-on error,warning "$deb" || fail "lintian found the problems above"
  ok "lintian"
else
  echo "skip lintian: not installed"
fi

# ---------------------------------------------------------------- macOS bundle metadata
# The .app is built on a Mac (packaging/macos/build-app.sh); what it reads from
# this tree can be checked anywhere. Wails fills Info.plist as a Go template
# with only .Name and .Info.* (pkg/buildassets), so any other field would
# break the Mac build.
/usr/bin/python3 - "$version" <<'PY' || fail "build/darwin is not what wails build and macOS expect"
import json, plistlib, re, sys
version = sys.argv[1]
out = json.load(open("wails.json"))["outputfilename"]
for name in ("build/darwin/Info.plist", "build/darwin/Info.dev.plist"):
    text = open(name, encoding="utf-8").read()
    for field in re.findall(r"{{\s*([^}]*?)\s*}}", text):
        assert re.fullmatch(r"\.Name|\.Info\.[A-Za-z]+", field), f"{name}: template field {field} is not one Wails provides"
    plist = plistlib.loads(re.sub(r"{{[^}]*}}", version, text).encode())
    assert plist["CFBundleIdentifier"].startswith("org.kidcoder.classroom"), plist["CFBundleIdentifier"]
    assert plist["CFBundleExecutable"] == out, f"{name}: CFBundleExecutable {plist['CFBundleExecutable']} is not wails.json's {out}"
    assert plist["CFBundleIconFile"] == "iconfile" and plist["LSHasLocalizedDisplayName"] is True
    assert set(plist["CFBundleLocalizations"]) == {"en", "zh-Hans"}
names = {}
for lang in ("en", "zh-Hans"):
    strings = open(f"build/darwin/{lang}.lproj/InfoPlist.strings", encoding="utf-8").read()
    names[lang] = re.search(r'^CFBundleDisplayName = "([^"]+)";$', strings, re.M).group(1)
assert names == {"en": "Kid Coder", "zh-Hans": "小教室"}, names
print("ok   macOS bundle metadata: org.kidcoder.classroom, executable " + out + ", display names " + " / ".join(names.values()))
PY

# ---------------------------------------------------------------- install
status=$(dpkg-query -W -f='${Status}' kidcoder 2>/dev/null || true)
[[ "$status" != *"ok installed"* ]] || fail "kidcoder is already installed; remove it first (this test must leave the machine as it found it)"
dpkg-query -W -f='${Package}\n' | sort >"$work/before"
we_installed=1
apt_get install "$deb" >"$work/apt-install.log" 2>&1 || { cat "$work/apt-install.log"; fail "apt-get install failed"; }
dpkg-query -W -f='${Package}\n' | sort >"$work/after"
# What apt pulled in for the package goes again with it at the end.
pulled=$(comm -13 "$work/before" "$work/after" | grep -vx kidcoder | tr '\n' ' ' || true)
[ "$(command -v kidcoder)" = /usr/bin/kidcoder ] || fail "kidcoder is not /usr/bin/kidcoder after install: $(command -v kidcoder)"
ok "apt-get install $(basename "$deb") (pulled in besides: ${pulled:-nothing})"
# The profile goes to /etc/apparmor.d only where the kernel restricts
# unprivileged user namespaces through AppArmor.
if [ -e /proc/sys/kernel/apparmor_restrict_unprivileged_userns ] && [ -d /etc/apparmor.d ]; then
  cmp -s /usr/share/kidcoder/apparmor/kidcoder /etc/apparmor.d/kidcoder ||
    fail "AppArmor restricts user namespaces here, but /etc/apparmor.d/kidcoder is not the packaged profile"
  ok "AppArmor restricts user namespaces here: /etc/apparmor.d/kidcoder installed"
else
  [ ! -e /etc/apparmor.d/kidcoder ] || fail "/etc/apparmor.d/kidcoder was installed on a kernel without the AppArmor user-namespace restriction"
  ok "no AppArmor user-namespace restriction here: no profile installed"
fi

home=$work/home
mkdir -p "$home"
chmod 0700 "$home"
# A clean login-like environment: the installed app must not lean on this checkout or the build's PATH.
run_env=(env -i HOME="$home" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8
         XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" XDG_DATA_HOME="$home/.local/share"
         XDG_RUNTIME_DIR="$home")

line=$("${run_env[@]}" kidcoder version)
[[ "$line" =~ ^kidcoder\ ${version//./\\.}\ \(commit\ [0-9a-f]{7,40},\ built\ [0-9]{4}-[0-9]{2}-[0-9]{2}T ]] ||
  fail "kidcoder version says '$line'; expected version $version, a commit and a build date"
ok "kidcoder version: $line"

"${run_env[@]}" kidcoder selftest >"$work/selftest.out" 2>&1 || { cat "$work/selftest.out"; fail "kidcoder selftest failed"; }
grep -q "sandbox OK" "$work/selftest.out" || { cat "$work/selftest.out"; fail "selftest did not report sandbox OK"; }
ok "kidcoder selftest: $(grep -c . "$work/selftest.out") lines, sandbox OK"

mkdir -p "$home/try"
cat >"$home/try/star.py" <<'PY'
import turtle
name = "小教室"
print("你好,", name, sum(range(10)))
t = turtle.Turtle()
for _ in range(5):
    t.forward(100)
    t.right(144)
PY
"${run_env[@]}" kidcoder run --out "$home/try/out" "$home/try/star.py" >"$work/run.out" 2>"$work/run.err" ||
  { cat "$work/run.out" "$work/run.err"; fail "kidcoder run star.py exited $?"; }
grep -qx "你好, 小教室 45" "$work/run.out" || { cat "$work/run.out" "$work/run.err"; fail "kidcoder run printed the wrong thing"; }
grep -q "<svg" "$home/try/out/turtle.svg" || fail "kidcoder run --out wrote no turtle drawing"
cp "$home/try/out/turtle.svg" "$art/package-run-turtle.svg"
printf 'print(10 / 0)\n' >"$home/try/oops.py"
rc=0; "${run_env[@]}" kidcoder run --lang en "$home/try/oops.py" >"$work/oops.out" 2>"$work/oops.err" || rc=$?
[ "$rc" -ne 0 ] && grep -q ZeroDivisionError "$work/oops.err" || fail "a ZeroDivisionError ran with exit $rc: $(cat "$work/oops.err")"
ok "kidcoder run from /usr/bin: output, turtle.svg ($(wc -c <"$home/try/out/turtle.svg") bytes), error exit $rc"

rc=0; "${run_env[@]}" kidcoder selftest --python /nonexistent >"$work/nopy.out" 2>"$work/nopy.err" || rc=$?
[ "$rc" -eq 3 ] || fail "selftest with a missing Python exited $rc, not 3"
grep -q "apt install python3" "$work/nopy.err" || fail "selftest with a missing Python does not name the fix: $(cat "$work/nopy.err")"
ok "missing Python: exit 3, '$(grep -m1 -o 'sudo apt install python3' "$work/nopy.err")' named"

# ---------------------------------------------------------------- the menu entry under X
mkfifo "$work/displayfd"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/displayfd" 2>"$work/xvfb.log" &
x_pid=$!
# Xvfb writes its display number once it accepts clients: no polling needed.
read -r display_no <"$work/displayfd" || true
[ -n "$display_no" ] || { cat "$work/xvfb.log"; fail "Xvfb did not start"; }
display=":$display_no"

installed_desktop=/usr/share/applications/$app_id.desktop
exec_line=$(sed -n 's/^Exec=//p' "$installed_desktop" | head -n1)
# Field codes (%f, %U, ...) stand for files dropped on the icon; none here.
read -ra argv <<<"$(sed 's/ *%[a-zA-Z]//g' <<<"$exec_line")"
setsid "${run_env[@]}" DISPLAY="$display" NO_AT_BRIDGE=1 WEBKIT_DISABLE_COMPOSITING_MODE=1 LIBGL_ALWAYS_SOFTWARE=1 \
  "${argv[@]}" >"$work/gui.log" 2>&1 &
gui_pid=$!

wid=$(DISPLAY=$display timeout 60 xdotool search --sync --onlyvisible --name "Kid Coder" | head -n1) ||
  { cat "$work/gui.log"; fail "no 'Kid Coder' window within 60 s of running Exec=$exec_line"; }
title=$(DISPLAY=$display xdotool getwindowname "$wid")
wm_class=$(DISPLAY=$display xprop -id "$wid" WM_CLASS)
wanted=$(sed -n 's/^StartupWMClass=//p' "$installed_desktop")
[[ "$wm_class" == *"\"$wanted\""* ]] || fail "window WM_CLASS is $wm_class but the desktop entry says StartupWMClass=$wanted"
ok "Exec=$exec_line opened '$title', $wm_class (StartupWMClass=$wanted)"

# The star draws itself after the page loads; there is no event to await from
# outside the app, so watch the screen until enough gold shows or time runs out.
gold() {
  convert "$1" -depth 8 rgb:- | /usr/bin/python3 -c '
import sys
w, h = 1280, 800
d = sys.stdin.buffer.read()
x0 = w * 45 // 100
n = 0
for y in range(h):
    row = d[(y * w + x0) * 3:(y + 1) * w * 3]
    for r, g, b in zip(row[0::3], row[1::3], row[2::3]):
        if r > 225 and 180 < g < 230 and b < 90:
            n += 1
print(n)'
}
shot=$art/package-star.png
deadline=$((SECONDS + 60))
count=0
while :; do
  DISPLAY=$display import -window root "$shot"
  count=$(gold "$shot")
  [ "$count" -ge 3000 ] && break
  kill -0 "$gui_pid" 2>/dev/null || { cat "$work/gui.log"; fail "the app exited before the star showed"; }
  [ "$SECONDS" -lt "$deadline" ] || { cat "$work/gui.log"; fail "only $count gold pixels in the right 55% after 60 s (screenshot: $shot)"; }
  sleep 0.5
done
ok "the golden star shows: $count gold pixels in the right 55% of 1280x800 ($shot)"
kill -- "-$gui_pid" 2>/dev/null || true
wait "$gui_pid" 2>/dev/null || true
gui_pid=""
kill "$x_pid" 2>/dev/null || true
wait "$x_pid" 2>/dev/null || true
x_pid=""

# ---------------------------------------------------------------- uninstall keeps the lessons
lessons="$home/Documents/Kid Coder"
mkdir -p "$lessons/我的第一课"
printf 'print("我的作品 my work")\n' >"$lessons/我的第一课/main.py"
fingerprint() { (cd "$lessons" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
fingerprint >"$work/lessons.before"
apt_get remove kidcoder $pulled >"$work/apt-remove.log" 2>&1 || { cat "$work/apt-remove.log"; fail "apt-get remove failed"; }
we_installed=""
status=$(dpkg-query -W -f='${Status}' kidcoder 2>/dev/null || true)
[[ "$status" != *"ok installed"* ]] || fail "kidcoder is still installed after apt-get remove ($status)"
for f in /usr/bin/kidcoder /usr/bin/kidcoder-gui "$installed_desktop" /etc/apparmor.d/kidcoder; do
  [ ! -e "$f" ] || fail "$f is still there after apt-get remove"
done
fingerprint >"$work/lessons.after"
diff "$work/lessons.before" "$work/lessons.after" || fail "removing the package changed the lessons folder"
grep -q "我的第一课/main.py" "$work/lessons.after" || fail "the lesson file is gone"
ok "apt-get remove kidcoder: package gone, lessons folder intact ($(grep -c . "$work/lessons.after") files)"
echo "package test passed: $(basename "$deb")"
