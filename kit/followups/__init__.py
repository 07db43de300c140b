"""Follow-ups the owner asked for, never nagging: when the owner mentions a plan with a time, the
model may offer a reminder in its reply; it never creates one unasked."""
