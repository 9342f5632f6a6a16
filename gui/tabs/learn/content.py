"""What the Learn tab says: the lesson's sections in its order, each explained in our own
words, and its five quiz questions. Plain data, no Qt, so it can be tested as text."""
# Qt-free: the Learn tab's text, plain data (tests/test_structure.py).

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ShowMe:
    """A 'Show me' button: its text, its tooltip, and what it sets up (see director)."""

    text: str
    tip: str
    action: str


@dataclass(frozen=True)
class LessonSection:
    key: str
    title: str
    body: str                      # rich text
    show_me: tuple[ShowMe, ...] = ()
    exercise: str = ""             # the key of the section's exercise, if it has one


SECTIONS = (
    LessonSection("idea", "The idea: record, then replay backwards", """
<p>The chain rule needs two numbers at every operation: how much the operation's output
moves when one of its inputs moves (its <i>local derivative</i>), and how much the final
loss moves when that output moves (the gradient that has already come back from the
output). So while the program runs forwards, every result <b>records</b> which operation
made it and from which operands: that record is the computation graph.</p>
<p>Differentiation then <b>replays the record backwards</b>, from the loss to the inputs.
Each node multiplies the gradient it received by each local derivative and hands the
product to the operand. Nothing is approximated and no formula is manipulated: the
backward pass only multiplies numbers the forward pass already left behind.</p>""",
            (ShowMe("Show me the record", "Open the lesson's neuron in the Graph tab and "
                    "run its forward pass: every box now knows its value and its parents",
                    "idea"),)),
    LessonSection("engine", "The engine", """
<p>A <code>Value</code> holds a number, a slot for its gradient, its operands and, for
each operand, the rule that passes a gradient back to it. Three details decide whether
the result is right:</p>
<ul><li><b>The order.</b> A node may pass its gradient on only when every node that uses
it has contributed. Sorting the graph topologically and walking it from the output
backwards guarantees that.</li>
<li><b>The start.</b> The loss's gradient with respect to itself is 1; every other
gradient is built from that single number.</li>
<li><b>Adding, not assigning.</b> A value used twice receives one contribution per use, and
they must be summed.</li></ul>
<p>Each operation needs only its own local derivatives. Write the one for multiplication
yourself below; the app then runs the neuron on <i>your</i> rule.</p>""",
            (ShowMe("Show me a rule at work", "Open f = ab + a in the Graph tab and take "
                    "the first backward step that applies a rule", "engine"),),
            "multiply"),
    LessonSection("smallest", "The smallest possible check", """
<p>Take f(a, b) = a·b + a at a = 3, b = 4. By hand, ∂f/∂a = b + 1 = 5 and ∂f/∂b = a = 3;
the engine's backward pass gives the same two numbers, and f = 15.</p>
<p>The interesting one is a: it is used twice, by the product and by the sum, so its
gradient arrives along two paths, 4 from the product and 1 from the sum, and the two
add up to 5.</p>""",
            (ShowMe("Show me 5 and 3", "Open f = ab + a in the Graph tab at the end of its "
                    "backward pass; click a to see both of its paths", "smallest"),)),
    LessonSection("chain", "A longer chain against calculus", """
<p>y = tanh(x³ + 3x) chains a cube, a product, a sum and a tanh. At x = 0.5 the calculus
answer, (1 − tanh²(x³ + 3x))·(3x² + 3), and the engine's both come to 0.5390038624 and
differ by exactly 0.</p>
<p>The point matters. At <b>x = 2</b> the inner value is 14, tanh is flat there, and both
derivatives are about 4·10⁻¹¹: printed to ten decimals, 0.0000000000. A derivative that
forgot the (3x² + 3) factor is just as flat there, so agreement at x = 2 would prove
nothing. A check is only a check where a wrong answer would look different, which is
why the exercise below compares over a whole range.</p>""",
            (ShowMe("Show me the chain", "Open tanh(x³ + 3x) at x = 0.5 in the Graph tab, "
                    "backward pass done", "chain"),
             ShowMe("Show me every rule checked", "The Rules tab: every rule against "
                    "calculus and a central difference", "rules")),
            "chain"),
    LessonSection("neuron", "One neuron, one step, by hand", """
<p>The lesson's neuron: w1 = 0.5, w2 = −0.3, b = 0.1, inputs x1 = 1, x2 = 2, target 1,
loss (tanh(z) − y)². Forwards: z = 0.5 − 0.6 + 0.1 = 0, the prediction tanh(0) = 0, the
loss (0 − 1)² = 1.</p>
<p>Backwards: dL/dp = 2(p − y) = −2; tanh'(0) = 1, so dL/dz = −2. z is a sum of
weight × input terms, so each weight's gradient is −2 times <i>its own input</i>: −2 for
w1, −4 for w2, −2 for b (whose "input" is 1).</p>
<p><b>Feature scaling in three numbers.</b> w2's gradient is twice w1's for no reason
but that x2 = 2·x1. An input measured in thousands would get gradients a thousand times
those of one measured in units, and a single learning rate could not suit both; that is
why inputs are scaled to similar ranges before training.</p>""",
            (ShowMe("Show me −2, −4, −2", "Open the neuron in the Graph tab at the end of "
                    "its backward pass", "neuron"),),
            "step"),
    LessonSection("tensorflow", "The same graph in TensorFlow", """
<p><code>tf.GradientTape</code> does what this engine does: it records the operations
run inside its context and replays them backwards. On the neuron its gradients and ours
are identical to the last printed digit (difference 0). The framework's advantage
is speed, not a different idea: it works on whole tensors with fused kernels instead of
one Python object per number.</p>
<p>Below, the current program is written out as a script for TensorFlow, PyTorch or JAX
that prints its gradients, and the app runs its own TensorFlow check beside it.</p>""",
            (ShowMe("Show me the TensorFlow check", "The Rules tab: the current program "
                    "under tf.GradientTape, input by input", "tensorflow"),),
            "frameworks"),
    LessonSection("reverse", "Why reverse mode", """
<p>The chain rule can be applied from either end. <b>Forward mode</b> pushes a derivative
from one input to the output: one pass per input. <b>Reverse mode</b> pulls a gradient
from the output to every input at once: one pass per output.</p>
<p>A network has many parameters and one scalar loss, so reverse mode gets every gradient
for about the cost of one extra forward pass, while forward mode would repeat the whole
computation once per parameter: a million passes for a million parameters. The two give
the same numbers; only the cost differs. Count them yourself below.</p>""",
            (ShowMe("Show me the timing", "The Modes tab: both modes timed from 2 to 1,600 "
                    "parameters", "modes"),),
            "passes"),
    LessonSection("accumulate", "Gradients accumulate", """
<p>In b = a + a, a reaches b along two paths, each with local derivative 1, so db/da = 2.
In c = a·a each path carries the other factor, 3, so dc/da = 6. Both answers need the
engine to <b>add</b> each arriving contribution to what a already holds. An engine that
assigns instead keeps only the last path: 1 and 3, exactly half, an error that trains
almost normally and is therefore hard to notice.</p>
<p>Accumulating is deliberate, which is also why gradients must be cleared between
training steps: PyTorch's <code>optimizer.zero_grad()</code> exists for that, Keras does it
inside <code>apply_gradients</code>, and each <code>GradientTape</code> starts afresh.</p>""",
            (ShowMe("Show me a + a", "Open a + a in the Graph tab, just before a's two "
                    "paths arrive", "accumulate"),),
            "accumulate"),
    LessonSection("xor", "Train a network with nothing but this", """
<p>Nine parameters (a 2-2-1 tanh network), plain gradient descent at η = 0.1, and the
four rows of XOR. The loss hardly moves for hundreds of epochs, then falls by three
orders of magnitude, and it does not fall every epoch: it rises now and then on the
way.</p>
<p><b>Why a single perceptron cannot do it.</b> One unit draws one straight line across
the input square and says "1" on one side. XOR wants (0, 1) and (1, 0) on one side and
(0, 0) and (1, 1) on the other, and those two pairs sit on the two diagonals: no straight
line separates them. Two hidden units draw two lines and the output unit combines them,
which gives the curved band you see in the XOR tab's picture of the output.</p>""",
            (ShowMe("Show me XOR learned", "The XOR tab: train the 2-2-1 network live",
                    "xor"),
             ShowMe("Show me one hidden unit fail", "The XOR tab with a single hidden "
                    "unit, training: its output depends on one line through the square, so "
                    "the loss stalls far above zero", "xor1"))),
    LessonSection("move", "See it move", """
<p>The Graph tab is the moving picture: press <b>Right</b> to step. The forward pass fills
in each node's value in topological order; the backward pass then applies one node's rule
per step, and each edge shows its local derivative × the upstream gradient = what it
hands back. <b>Left</b> undoes one step exactly, <b>Space</b> plays and pauses.</p>""",
            (ShowMe("Show me it move", "Open the neuron in the Graph tab and play it from "
                    "the start", "move"),)),
    LessonSection("pitfalls", "Pitfalls", """
<ul><li><b>= instead of +=</b>: a reused value keeps only its last path (a + a gives 1).</li>
<li><b>No topological sort</b>: a node passes on a gradient before all of it has arrived;
wrong, stable and plausible.</li>
<li><b>No zero_grad</b>: the previous step's gradients are added to this step's.</li>
<li><b>Autodiff is not a finite difference</b>: there is no step size, each local
derivative is exact, which is why the checks come out at 0, not 1e-7.</li>
<li><b>Only the branch that ran</b>: the graph records the path taken; relu below zero
passes back 0, and that 0 is correct.</li>
<li><b>Not for production</b>: this engine makes one Python object, with its own
bookkeeping, for every single number and operation. That is ideal for seeing and
checking each step and hopeless for speed; frameworks apply the same rules to whole
tensors at once, in compiled kernels.</li></ul>""",
            (ShowMe("Show me the bugs", "The Pitfalls tab: your program under each bug",
                    "pitfalls"),
             ShowMe("Show me a bug in the Graph tab", "a + a stepped with = instead of +=; "
                    "the wrong step turns red", "overwrite"))),
    LessonSection("quiz", "Recap and quiz", """
<p>A graph records each value's operation and operands; the backward pass replays it
from dL/dL = 1 in reverse topological order, adding each contribution; it agrees with
calculus and with <code>tf.GradientTape</code> exactly, and reverse mode needs one
backward pass however many parameters there are. Five questions to check it stuck:</p>""",
            exercise="quiz"),
)

SECTION_KEYS = tuple(s.key for s in SECTIONS)


@dataclass(frozen=True)
class Question:
    text: str
    options: tuple[str, str, str, str]
    right: int          # index into options
    explanation: str


# The options of a question are of about the same length and carry no reasons: the
# reason is the explanation, shown once the learner has answered. The quiz shows them in
# an order of its own per learner (gui/tabs/learn/quiz.py); `right` indexes this tuple.
QUESTIONS = (
    Question(
        "Why must a backward rule add to a gradient (+=) rather than assign it (=)?",
        ("Assigning a float is far slower than adding one to it in Python.",
         "+= is what sets the output's gradient to 1 before the pass.",
         "A value used twice gets one contribution per use, to be summed.",
         "= would make the topological sort visit some nodes twice."),
        2,
        "Every use of a value is a separate path to the output, and the chain rule sums "
        "over paths: a + a gives 2 with += and 1 with =. The summing is deliberate, which "
        "is also why frameworks make you clear gradients between training steps."),
    Question(
        "What does the topological sort in backward() guarantee?",
        ("That the forward pass computes every value exactly once.",
         "That a node has every user's gradient before it passes its own.",
         "That the graph it is given has no cycles, so the pass ends.",
         "That the gradients come out in the order the inputs were declared."),
        1,
        "Every node must have received the gradients of all the nodes that use it before "
        "it passes its own to its operands. Without that order a node can hand on a "
        "partial sum. The result looks reasonable and is wrong, the hardest kind of bug "
        "to notice."),
    Question(
        "A model has 1,000,000 parameters and one scalar loss. How many passes does "
        "reverse-mode autodiff need to get all the gradients?",
        ("1,000,000: one pass for each of the parameters.",
         "One pass for each layer of the network, forward and back.",
         "One backward pass, since there is just one loss.",
         "About 1,000: the square root of the parameter count."),
        2,
        "Reverse mode costs one pass per output, and there is one loss. Forward mode is "
        "the one that needs a pass per input, a million here. Many parameters and one "
        "loss is exactly the shape reverse mode is cheap for."),
    Question(
        "In the worked neuron, dL/dw2 was −4 while dL/dw1 was −2. Why?",
        ("Because w2 started negative (−0.3) and w1 positive (0.5).",
         "Because w2 is further from its best value than w1 is.",
         "Because tanh is steeper along w2's path than along w1's.",
         "Because w2 multiplies x2 = 2 and w1 multiplies x1 = 1."),
        3,
        "A weight's gradient is dL/dz times its input, and x2 = 2 is twice x1 = 1. The "
        "input multiplies the gradient directly. Inputs on very different scales get "
        "very different gradients, so one learning rate cannot suit them all: the case "
        "for feature scaling."),
    Question(
        "How does autodiff differ from numerical differentiation with a small step h?",
        ("It takes no step: it evaluates each exact local rule at a point.",
         "It takes a far smaller step, so its error is 1e-16, not 1e-7.",
         "It averages a forward and a backward difference to cancel error.",
         "It differentiates the program's text symbolically, then simplifies."),
        0,
        "Each local derivative is the exact rule evaluated at a point, so the checks "
        "agree to 0 rather than about 1e-7. A finite difference must trade truncation "
        "error against round-off and needs one evaluation per input. Autodiff has "
        "neither problem, so finite differences serve only as an independent check of it."),
)

EXERCISES = ("multiply", "chain", "accumulate", "step", "frameworks", "passes")
EXERCISE_TITLES = {
    "multiply": "Exercise 1: write the multiply rule",
    "chain": "Exercise 2: check a long chain against calculus",
    "accumulate": "Exercise 3: watch gradients accumulate",
    "step": "Exercise 4: take one gradient step by hand",
    "frameworks": "Exercise 5: check yourself against tf.GradientTape",
    "passes": "Exercise 6: count the passes reverse mode saves",
}
