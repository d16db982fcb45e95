"""Streaming importers (services) behind the import commands and the admin's uploads."""
