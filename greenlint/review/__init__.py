"""Energy review of a change (`greenlint diff`): what a commit range, the index or the working
tree does to each call site's joules per program run, with the ratio and why.

`revisions` reads the command's words as the two sides and the paths, `gitfs` reads revisions from
git objects into snapshots, `sides` analyses each side through the check pipeline (no rule runs),
`matching` pairs call sites across the versions, `compare` computes the figures, ratios and reasons
per site and file, `programs` the totals per program run, `diff` runs it all (`diff_file`: one file,
for the editor), `budget` gates them, `formats` writes text, JSON (docs/diff-json.md), GitHub
annotations, Markdown and SARIF.
"""

#: The output formats of `greenlint diff` (`formats.render`), here so that the command's parser is
#: built without importing the review (as `greenlint.report.FORMATS` for `check`).
FORMATS = ("text", "json", "github", "markdown", "sarif")
