"""``sdc app``: the whole workflow in the browser (open, identify, assess, protect with undo,
compare, export), served locally by :mod:`sdc.app.server` and driven by the same declarations,
registry and workflow as the command line (:mod:`sdc.app.session`, :mod:`sdc.app.steps`)."""
