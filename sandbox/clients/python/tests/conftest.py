import os
import sys

# The plugin from this checkout, without installing it.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

pytest_plugins = ["pytest_slash_sandbox"]
