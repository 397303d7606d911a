"""Hold ``--sarif`` and ``--junit`` files to the vendored schemas (``tests/schemas/``): the OASIS
SARIF 2.1.0 JSON Schema (``jsonschema``, draft-04) and the Ant JUnit XSD (``xmlschema``, the test
extra). One line per file; exit status 1 when one does not validate.

    python scripts/check_ci_reports.py reports/ci/diff.sarif reports/ci/diff.xml
"""

from __future__ import annotations

import json
import pathlib
import sys

SCHEMAS = pathlib.Path(__file__).resolve().parents[1] / "tests" / "schemas"


def check(path: pathlib.Path) -> str | None:
    """None when ``path`` validates; else the first error, in one line."""
    if path.suffix == ".xml":
        import xmlschema

        errors = list(xmlschema.XMLSchema(str(SCHEMAS / "JUnit.xsd")).iter_errors(str(path)))
        return None if not errors else " ".join(str(errors[0].reason or errors[0]).split())
    import jsonschema

    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(json.loads(path.read_text(encoding="utf-8"))))
    return None if not errors else f"{'/'.join(map(str, errors[0].absolute_path))}: {errors[0].message}"


def describe(path: pathlib.Path) -> str:
    if path.suffix == ".xml":
        import xml.etree.ElementTree as ET

        suites = ET.parse(path).getroot().findall("testsuite")
        total = sum(int(s.get("tests")) for s in suites)
        failed = sum(int(s.get("failures")) for s in suites)
        # a bug in the --baseline, or accepted in urlwb.toml, is skipped too, its message says so
        kept = sum(el.get("message", "").startswith("bug, ") for s in suites for el in s.iter("skipped"))
        skipped = f"{total - failed - kept} hazards, {kept} bugs in the baseline or accepted" if kept else "hazards"
        return (f"JUnit XML valid against JUnit.xsd: {len(suites)} suites, {total} test cases, "
                f"{failed} failures (bugs), {total - failed} skipped ({skipped})")
    results = json.loads(path.read_text(encoding="utf-8"))["runs"][0]["results"]
    levels = [r["level"] for r in results]
    return (f"SARIF valid against sarif-schema-2.1.0.json: {len(results)} results, "
            f"{levels.count('error')} error, {levels.count('warning')} warning")


def main(argv: list[str]) -> int:
    bad = 0
    for name in argv:
        path = pathlib.Path(name)
        try:
            error = check(path)
        except (OSError, ValueError) as exc:   # missing, unreadable, not JSON or not XML
            error = f"{type(exc).__name__}: {exc}"
        print(f"{path}: {describe(path) if error is None else 'INVALID: ' + error}")
        bad += error is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
