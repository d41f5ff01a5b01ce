"""Flows (SPEC §4): the validator — models propose, code decides (`validator`), flow files
(`files`), and the scheduler detour (`scheduler`)."""
