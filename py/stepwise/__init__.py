"""stepwise: the author's side of Stepwise, beside the recorder (`steptrace`).

`scenario` reads and checks a lesson's scenario file, `targets` finds what a lesson may name in its
shown file (functions, methods, classes), and `cli` is the `stepwise` command (`stepwise trace ...`).
None of it runs in the reader's browser: the page's worker gets `steptrace` alone.
"""
