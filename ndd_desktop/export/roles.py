"""The role a document plays in an export, as the reports name it."""

from __future__ import annotations

#: The document an export keeps for its group (and the extra keepers a chained group needs),
#: one it leaves out as a duplicate of a kept one, and one in no group.
KEEPER, DUPLICATE, UNIQUE = "keeper", "duplicate", "unique"
#: The note of a document an export keeps besides its group's keeper because the reviewer chose it.
CHOSEN_KEEPER_NOTE = "kept too: chosen as a keeper by the reviewer"
