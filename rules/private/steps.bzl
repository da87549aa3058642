"""Checks the steps attribute of asset_transform at analysis time."""

_FIRST = "abcdefghijklmnopqrstuvwxyz"
_REST = _FIRST + "0123456789-_"

def check_steps(ctx):
    """Fails, naming the target and attribute, on a malformed step.

    Only the step name is checked here: it must be a lowercase letter
    followed by lowercase letters, digits, "-" or "_", and be followed by
    nothing or by ":" and options. Whether the step exists and whether its
    options are valid is decided by the bakefs tool, which parses the whole
    step language.

    Args:
      ctx: the rule context, with a steps attribute.
    """
    for i, step in enumerate(ctx.attr.steps):
        name = step.partition(":")[0]
        problem = None
        if not step:
            problem = "empty step"
        elif not name:
            problem = "missing step name before ':'"
        elif name[0] not in _FIRST:
            problem = "step name must start with a lowercase letter"
        elif step.endswith(":"):
            problem = "':' must be followed by options (key=value)"
        else:
            for c in name.elems():
                if c not in _REST:
                    problem = "step name may hold only lowercase letters, digits, '-' and '_', found %r" % c
                    break
        if problem:
            fail("%s: attribute steps: steps[%d] %r: %s" % (ctx.label, i, step, problem))
