import argparse
import sys

from inventory import load_items, render


def main(argv=None):
    ap = argparse.ArgumentParser(prog="inventory")
    sub = ap.add_subparsers(dest="cmd", required=True)
    rep = sub.add_parser("report", help="print a valuation report")
    rep.add_argument("csv")
    args = ap.parse_args(argv)
    if args.cmd == "report":
        sys.stdout.write(render(load_items(args.csv)))
    return 0
