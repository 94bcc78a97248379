"""Reads every samples part of a result set with pyarrow, polars and fastparquet (and pandas
through pyarrow) and checks that they all read the same table: the readers users have, on the
parts gpucomm writes itself (src/resultset/_parquet.ts). Not run by `npm test` (none of these is
a Debian package here); run it by hand where they are installed:

    python3 scripts/parquet-readers.py SET_DIR

Prints one line per part and exits 1 if any reader disagrees or fails.
"""

import glob
import os
import sys

import fastparquet
import pandas as pd
import polars as pl
import pyarrow.parquet as pq


def main(set_dir: str) -> int:
    parts = sorted(glob.glob(os.path.join(set_dir, "samples", "part-*.parquet")))
    if not parts:
        print(f"{set_dir}: no samples parts", file=sys.stderr)
        return 2
    bad = 0
    rows = 0
    for path in parts:
        ref = pq.read_table(path).to_pandas()
        others = {
            "polars": pl.read_parquet(path).to_pandas(),
            "fastparquet": fastparquet.ParquetFile(path).to_pandas(),
            "pandas": pd.read_parquet(path),
        }
        differ = [
            name
            for name, df in others.items()
            if list(df.columns) != list(ref.columns)
            or not df.astype(object).where(df.notna(), None).equals(ref.astype(object).where(ref.notna(), None))
        ]
        rows += len(ref)
        print(f"{os.path.basename(path)}: {len(ref)} rows, {'differ: ' + ', '.join(differ) if differ else 'all agree'}")
        bad += len(differ) > 0
    print(f"{len(parts)} parts, {rows} rows, {bad} with a disagreement")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]) if len(sys.argv) == 2 else 2)
