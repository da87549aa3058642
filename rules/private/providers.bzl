"""Providers of bakefs's rules."""

BakefsAssetsInfo = provider(
    doc = """An output tree of the bakefs transform pipeline.

The tree holds each logical file at `<tree>/<path>`, each precompressed
variant at `<tree>/<path>.br`, `.gz` or `.zst`, and the manifest that lists
them (sizes, media types, SHA-256, hashed names, encodings) at
`<tree>/bakefs-manifest.json`. Hashed names are aliases in the manifest and
have no bytes of their own.

`asset_transform` returns it; a later `asset_transform` or a `go_embed_data`
that lists the target in `srcs` reads the whole tree through its manifest.
""",
    fields = {
        "tree": "File: the output directory (a tree artifact).",
        "manifest": "string: path of the manifest inside `tree`, always `bakefs-manifest.json`.",
        "label": "Label: the target that produced the tree, for messages.",
        "rewrite": "bool: whether the references in the tree's files are to be rewritten to hashed names where the tree is merged (asset_transform's `rewrite`).",
    },
)
