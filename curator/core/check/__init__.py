"""Checking a vault: the findings of every rule, lint with its cache and baseline, the fixes."""
