"""The web app: pages and a JSON API (`brain serve`)."""

from companybrain.surfaces.web.app import create_app

__all__ = ["create_app"]
