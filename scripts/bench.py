#!/usr/bin/env python3
"""Benchmarks (``urlwb bench``): python scripts/bench.py [hosts|urls|growth|memory|all] [--runs N]."""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from urlwb.measure import bench  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=bench.__doc__.splitlines()[0])
    bench.add_arguments(parser)
    sys.exit(bench.run(parser.parse_args()))
