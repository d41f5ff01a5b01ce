"""The client's language: which one a text is in and its Russian gender (`identify`), and the
keyword detectors — fatigue, meta questions, rescheduling, mood (`detectors`)."""
