"""Dashboard widgets: each renders a snapshot record computed by ctxscope.core."""
