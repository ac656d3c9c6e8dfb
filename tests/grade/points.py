"""tests/grade/points.py - read tests/grade/points.txt, the labs and their points.

The file is declarative, one statement a line ('#' starts a comment):

    lab NAME                  a lab; the lines below, up to the next "lab", are its
    after LAB...              the labs it builds on: intact in its handout, and
                              graded there too (they must keep full marks)
    machines NAME...          the tests/matrix.txt machines its tests run on
    visibility WORD           Gradescope's visibility of its tests (default visible)
    POINTS TEST [on NAME...]  a graded test: TEST is a KUnit filter (a suite, or
                              suite.case-glob, or several separated by commas:
                              page_alloc.pcp_*,smp_page_alloc); it earns POINTS if,
                              on each of its machines (the lab's, or those after
                              "on"), no case it selects fails and not all skip

The hidden tests of GRADE_EXTRA=dir may come with dir/points.txt in the same
format; its "lab" lines add tests to the labs named here, shown to students
after the due date unless a "visibility" line above them says otherwise.
"""

import fnmatch
import os

POINTS = os.path.join("tests", "grade", "points.txt")
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")


class PointsError(Exception):
    pass


class Test:
    def __init__(self, lab, points, glob, machines, where):
        self.lab, self.points, self.glob, self.machines, self.where = lab, points, glob, \
            machines, where
        # a KUnit filter: globs separated by commas, each suite or suite.case
        self.parts = [p.partition(".")[::2] for p in glob.split(",")]
        self.visibility = None          # the lab's unless set
        self.hidden = False             # from GRADE_EXTRA

    def selects(self, suite, case):
        return any(fnmatch.fnmatchcase(suite, s) and (not c or fnmatch.fnmatchcase(case, c))
                   for s, c in self.parts)


class Lab:
    def __init__(self, name, where):
        self.name, self.where = name, where
        self.after, self.machines, self.tests = [], [], []
        self.visibility = "visible"

    def machines_of(self, test):
        return test.machines or self.machines


def parse(text, path, labs=None):
    """The labs of a points file, in order: {name: Lab}.  With @labs (the main
    file's), an extra file: its sections add tests to those labs."""
    extra = labs is not None
    labs = labs if extra else {}
    lab = None
    for n, raw in enumerate(text.split("\n"), 1):
        words = raw.split("#", 1)[0].split()
        where = "%s:%d" % (path, n)
        if not words:
            continue
        key, args = words[0], words[1:]
        if key == "lab":
            if len(args) != 1:
                raise PointsError("%s: lab NAME" % where)
            if extra:
                if args[0] not in labs:
                    raise PointsError("%s: no lab '%s' (labs: %s)"
                                      % (where, args[0], " ".join(labs)))
            elif args[0] in labs:
                raise PointsError("%s: lab '%s' again" % (where, args[0]))
            else:
                labs[args[0]] = Lab(args[0], where)
            lab = labs[args[0]]
            continue
        if lab is None:
            raise PointsError("%s: '%s' before the first 'lab' line" % (where, key))
        if key == "after" and not extra:
            lab.after = args
        elif key == "machines" and not extra:
            lab.machines = args
        elif key == "visibility":
            if len(args) != 1 or args[0] not in VISIBILITIES:
                raise PointsError("%s: visibility %s" % (where, "|".join(VISIBILITIES)))
            if extra:
                lab.extra_visibility = args[0]
            else:
                lab.visibility = args[0]
        else:
            lab.tests.append(parse_test(lab, key, args, where, extra))
    for lab in labs.values():
        for dep in lab.after:
            if dep not in labs:
                raise PointsError("%s: lab %s comes after '%s', which is no lab"
                                  % (lab.where, lab.name, dep))
        if not lab.machines:
            raise PointsError("%s: lab %s names no machines" % (lab.where, lab.name))
    return labs


def parse_test(lab, key, args, where, extra):
    try:
        value = float(key)
    except ValueError:
        raise PointsError("%s: '%s' is neither a statement (lab, after, machines, "
                          "visibility) nor a number of points" % (where, key)) from None
    if not args or (len(args) > 1 and (args[1] != "on" or len(args) < 3)):
        raise PointsError("%s: POINTS TEST [on MACHINE...]" % where)
    test = Test(lab.name, int(value) if value.is_integer() else value, args[0], args[2:],
                where)
    if any(not s or "[" in s + c for s, c in test.parts):
        raise PointsError("%s: TEST is a suite or suite.case-glob, or several of them "
                          "separated by commas" % where)
    if extra:
        test.hidden = True
        test.visibility = getattr(lab, "extra_visibility", "after_due_date")
    return test


def read_points(path, labs=None):
    with open(path) as f:
        return parse(f.read(), os.path.relpath(path), labs)


def depends_on(labs, name):
    """Every lab that @name builds on, directly or not."""
    seen, todo = set(), list(labs[name].after)
    while todo:
        dep = todo.pop()
        if dep not in seen:
            seen.add(dep)
            todo += labs[dep].after
    if name in seen:
        raise PointsError("lab %s builds on itself" % name)
    return seen


def cut_points(text, keep):
    """The points file with only the sections of the labs in @keep."""
    out, keeping = [], True
    for line in text.split("\n"):
        words = line.split("#", 1)[0].split()
        if words and words[0] == "lab":
            keeping = words[1] in keep
        if keeping:
            out.append(line)
    return "\n".join(out)
