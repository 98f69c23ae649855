"""ctxscope.tui: the Textual dashboard and the command-line interface.

Everything here renders state that :mod:`ctxscope.core` computed; no token counting, pipeline or
policy logic lives in this package.
"""
