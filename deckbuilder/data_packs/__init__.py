"""Card data players complete: the values read from printed cards, kept in the player's
overlay (`data review`) and shared as data packs (`data export|import|remove`).

- `model`: the pack file's model (`DataPack`) and the source texts a confirmation carries;
- `layers`: applying the installed packs between the packaged sets and the overlay;
- `standing`: each value's standing (stated by a document, confirmed by a player, unconfirmed);
- `review`: the questions of a review and what an answer means (no I/O);
- `answers`: saving one answer into the overlay, atomically and under its lock;
- `status`: the counts of `data status`; `exchange`: export, import and remove of packs;
- `fold`: the maintainer's folding of a reviewed pack into the packaged set files.

This module imports nothing: `catalog.build_catalog` imports `layers`, which must not import
the catalog back.
"""
