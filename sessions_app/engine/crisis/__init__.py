"""Crisis and risk: the net on every client text and the one escalation path (`escalation`), the
screening card (`screening`), the safety model's second opinion (`safety_model`), and a person
setting the risk level (`risk_by_hand`). The net itself is `engine.safety`."""
