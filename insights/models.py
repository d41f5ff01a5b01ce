"""Insights: dashboards and statistics over sessions and analyses."""
