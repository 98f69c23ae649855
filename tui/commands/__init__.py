"""One module per ``ctxscope`` sub-command.

Each module exposes ``register(subparsers)``, which adds its parser and sets ``handler`` to a
``(argparse.Namespace) -> int`` function returning the process exit code. Modules import heavy
dependencies (Textual) inside their handler so that ``ctxscope estimate`` starts fast.
"""
