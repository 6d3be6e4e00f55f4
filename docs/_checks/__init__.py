"""Checks of the site's claims, one module per page (see CONTRIBUTING.md)."""
