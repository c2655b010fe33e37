"""Stage the browser assets the built book serves itself, so it reads with no CDN.

``npm ci`` installs the exact versions pinned in ``package-lock.json`` into ``node_modules/``
(never committed). This script copies only the files a page needs from there into
``_build/web_assets/vendor/``; ``_config.yml`` lists ``_build/web_assets`` in
``html_static_path``, so Sphinx publishes them as ``_build/html/_static/vendor/...`` and
``mathjax_path`` / ``nb_ipywidgets_js`` point at those copies instead of a CDN.

The fonts (``@fontsource/noto-sans-sc``, ``@fontsource/noto-emoji``) are not staged here: the
whole packages are far larger than what the pages use, so ``book/_ext/mltutor_fonts.py`` cuts
them down to the characters of the built pages at the end of the build, straight from
``node_modules/``.

Run it after ``npm ci`` and before ``jupyter-book build`` (``make book`` does both)::

    python scripts/copy_web_assets.py            # stage into _build/web_assets
    python scripts/copy_web_assets.py --dest DIR # stage somewhere else
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
DEFAULT_DEST = ROOT / "_build" / "web_assets"

# (npm package, files or folders inside it, folder under vendor/). Folders are copied whole;
# each package.json goes along so the published site records the version and licence it carries.
ASSETS = [
    ("mathjax", ["es5", "LICENSE", "package.json"], "mathjax"),
    ("requirejs", ["require.js", "package.json"], "requirejs"),
    (
        "@jupyter-widgets/html-manager",
        # embed-amd.js is self-contained (base, controls and output widgets built in); the
        # fonts sit beside it because its CSS loads them relative to the script's own URL.
        [
            "dist/embed-amd.js",
            "dist/*.woff2",
            "dist/*.woff",
            "dist/*.ttf",
            "dist/*.eot",
            "dist/*.svg",
            "package.json",
        ],
        "html-manager",
    ),
]


def _package_version(package_dir: Path) -> str:
    return json.loads((package_dir / "package.json").read_text(encoding="utf-8"))["version"]


def stage(dest: Path = DEFAULT_DEST, node_modules: Path = NODE_MODULES) -> list[Path]:
    """Copy the vendored assets into ``dest/vendor`` and return the files written."""
    vendor = dest / "vendor"
    if vendor.exists():
        shutil.rmtree(vendor)
    written: list[Path] = []
    for package, patterns, target in ASSETS:
        package_dir = node_modules / package
        if not (package_dir / "package.json").is_file():
            raise SystemExit(
                f"{package_dir} is missing: run `npm ci` in {ROOT} first "
                "(package.json and package-lock.json pin the versions)."
            )
        out_dir = vendor / target
        out_dir.mkdir(parents=True, exist_ok=True)
        for pattern in patterns:
            matches = sorted(package_dir.glob(pattern))
            if not matches:
                raise SystemExit(f"{package} {_package_version(package_dir)} has no {pattern}")
            for src in matches:
                if src.is_dir():
                    shutil.copytree(src, out_dir, dirs_exist_ok=True)
                    written.extend(p for p in out_dir.rglob("*") if p.is_file())
                else:
                    shutil.copy2(src, out_dir / src.name)
                    written.append(out_dir / src.name)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST)
    parser.add_argument("--node-modules", type=Path, default=NODE_MODULES)
    args = parser.parse_args(argv)
    files = stage(args.dest, args.node_modules)
    size = sum(p.stat().st_size for p in files) / 2**20
    print(f"staged {len(files)} files ({size:.1f} MiB) in {args.dest / 'vendor'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
