"""The names of the grouping choices a collection can hold: how a pair set becomes groups and
which member of a group is its keeper.

Their own module so that choosing (``pipeline.selection``, the settings the command line
and the window read) does not import the grouping itself (``pipeline.grouping``, with the
clustering kernels' modules): a command that only names a rule starts sooner.
"""

#: How the keeper of a group is chosen (``pipeline.grouping.keeper_key``).
KEEPER_RULES = ("reference-oldest", "oldest", "newest", "longest", "folder-priority", "latest")
#: How pairs become groups: connected components, or each around its principal document.
GROUPINGS = ("components", "principal")
