"""The record classes the app's children may send their parent (engine.frames): every
other class in a frame is refused, so a child makes nothing but plain data here."""
# Qt-free: names only; tests/test_structure.py imports it alone and finds no Qt.

from __future__ import annotations

from engine.frames import RecordClasses

CHILD_RECORDS = RecordClasses((
    "engine.lesson.nn:Epoch",                      # XOR training
    "engine.lesson.modes:SweepRow",                # the Modes tab's timing sweep
    "engine.lesson.modes:SweepProgress",
    "engine.lesson.learn.passes:PassProgress",     # the Learn tab's pass count
    "engine.lesson.learn.passes:PassCount",
    "engine.lesson.report:ReportProgress",         # File → Write report
    "engine.lesson.report:ReportData",
    "engine.lesson.report:ReportSection",
    "engine.lesson.report:Row",
    "engine.lesson.rules:RuleError",
    "gui.jobs.tab_child:BugGradients",             # the Pitfalls tab's table
    "gui.jobs.tab_child:StepLesson",               # the Rules tab's step-size lesson
    "engine.checks.central_difference:StepError",
    "gui.jobs.tensorflow_child:CheckResult",       # the TensorFlow cross-check
    "engine.checks.tensorflow_check:GradientRow",
    "gui.graph.groups.model:Grouping",             # a big graph's grouping
    "gui.graph.groups.model:Group",
))
