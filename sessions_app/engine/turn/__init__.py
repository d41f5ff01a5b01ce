"""The turn loop: a client's answer or message (`loop`), its words read and routed (`routing`),
the opening (`opening`), the state document (`state`) and neutral session titles (`titles`)."""
