#!/usr/bin/python3
"""Writes the package's copyright file: Kid Coder's own notice, then the
licence of every Go module linked into the binaries and every npm package
whose code can end up in the window's bundle.

The list comes from the binaries themselves (`go version -m`) and from the
frontend's dependency tree, so it cannot drift from what is shipped. A Go
module without a licence file stops the build: shipping it would leave the
copyright file incomplete.

Usage: copyright.py HEAD_FILE FRONTEND_DIR BINARY... > copyright
"""
import json
import os
import subprocess
import sys

LICENSE_NAMES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "LICENCE.txt", "COPYING", "license", "license.md", "LICENSE-MIT")


def go_env(name):
    return subprocess.run(["go", "env", name], check=True, capture_output=True, text=True).stdout.strip()


def escape_module(path):
    # The module cache spells upper-case letters as "!" + lower case.
    return "".join("!" + c.lower() if c.isupper() else c for c in path)


def license_file(folder):
    for name in LICENSE_NAMES:
        p = os.path.join(folder, name)
        if os.path.isfile(p):
            return p
    return None


def readme_license(folder):
    """The "License" section of a module's README, for modules that state
    their licence there instead of shipping a licence file."""
    for name in ("README.md", "README", "README.txt"):
        p = os.path.join(folder, name)
        if not os.path.isfile(p):
            continue
        lines = open(p, encoding="utf-8").read().splitlines()
        for i, line in enumerate(lines):
            if line.lstrip("#").strip().lower() in ("license", "licence"):
                body = []
                for l in lines[i + 1:]:
                    if l.startswith("#"):
                        break
                    body.append(l)
                text = "\n".join(body).strip()
                if text:
                    return text
    return None


def go_modules(binaries):
    mods = {}
    for b in binaries:
        out = subprocess.run(["go", "version", "-m", b], check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            f = line.strip().split("\t")
            if f[0] in ("dep", "=>") and len(f) >= 3:
                if f[0] == "=>":
                    # A replacement stands in for the module on the line above.
                    mods.pop(last, None)
                last = (f[1], f[2])
                mods[last] = True
    return sorted(mods)


def npm_packages(frontend):
    with open(os.path.join(frontend, "package.json"), encoding="utf-8") as fh:
        top = json.load(fh)
    # The Svelte runtime is compiled into the bundle although it is a build-time dependency.
    queue = [(frontend, n) for n in list(top.get("dependencies", {})) + ["svelte"]]
    seen = {}
    while queue:
        base, name = queue.pop()
        folder = resolve_npm(base, frontend, name)
        if folder is None or folder in seen:
            continue
        with open(os.path.join(folder, "package.json"), encoding="utf-8") as fh:
            meta = json.load(fh)
        seen[folder] = meta
        queue.extend((folder, d) for d in meta.get("dependencies", {}))
    return sorted(seen.items(), key=lambda kv: (kv[1]["name"], kv[1].get("version", "")))


def resolve_npm(base, frontend, name):
    # Node's lookup: the nearest node_modules going up from the requiring package.
    d = base
    while True:
        cand = os.path.join(d, "node_modules", name)
        if os.path.isfile(os.path.join(cand, "package.json")):
            return cand
        if os.path.samefile(d, frontend) or d == os.path.dirname(d):
            return None
        d = os.path.dirname(d)
        if os.path.basename(d) == "node_modules":
            d = os.path.dirname(d)


def common_license(text):
    """Debian ships some licences in /usr/share/common-licenses; policy
    (§12.5) wants a pointer there instead of another full copy."""
    if "Apache License" in text and "Version 2.0, January 2004" in text:
        return ("Licensed under the Apache License, Version 2.0. On Debian systems the\n"
                "full text is in /usr/share/common-licenses/Apache-2.0.")
    return text


def section(title, text):
    text = common_license(text)
    body = "\n".join(" " + (l if l.strip() else ".") for l in text.rstrip().splitlines())
    return f"{title}\n{body}\n"


def main():
    head, frontend, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = [open(head, encoding="utf-8").read().rstrip() + "\n"]

    goroot = go_env("GOROOT")
    with open(os.path.join(goroot, "LICENSE"), encoding="utf-8") as fh:
        out.append(section("The Go standard library and runtime, linked into both programs:", fh.read()))

    cache = go_env("GOMODCACHE")
    for path, version in go_modules(binaries):
        folder = os.path.join(cache, escape_module(path) + "@" + version)
        lic = license_file(folder)
        if lic is not None:
            with open(lic, encoding="utf-8") as fh:
                out.append(section(f"Go module {path} {version}:", fh.read()))
            continue
        stated = readme_license(folder)
        if stated is None:
            sys.exit(f"copyright.py: no licence file or README licence section for Go module {path} {version} in {folder}")
        out.append(section(f"Go module {path} {version}:",
                           "The module ships no licence file. Its README states:\n\n" + stated))

    if os.path.isdir(os.path.join(frontend, "node_modules")):
        for folder, meta in npm_packages(frontend):
            title = f"npm package {meta['name']} {meta.get('version', '')} ({meta.get('license', 'licence not stated')}):"
            lic = license_file(folder)
            text = open(lic, encoding="utf-8").read() if lic else f"Licensed under {meta.get('license', 'terms not stated')}; the package ships no licence text."
            out.append(section(title, text))
    else:
        sys.exit("copyright.py: frontend/node_modules is missing; run npm ci first")

    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
