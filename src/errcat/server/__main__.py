"""``python -m errcat.server``: serve the HTTP API with the catalog options."""

import sys

from errcat.server.command import main

sys.exit(main())
