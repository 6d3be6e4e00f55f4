"""Allow ``python -m tcdoc``."""

from tcdoc.cli import main

raise SystemExit(main())
