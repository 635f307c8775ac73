"""Lesson s08 practice: the s01 loop's commit point under a real budget.

Run it as ``python -m s08.practice``; see cli.py for flags and exit codes.
"""
