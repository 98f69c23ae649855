"""Screens pushed over the dashboard: help, summary text, scope picker, skipped lines."""
