"""Phase 3 for graphs of up to a few thousand nodes: dot's crossing minimisation
(Graphviz lib/dotgen/mincross.c; Gansner, Koutsofios, North and Vo, "A Technique for
Drawing Directed Graphs", 1993, section 3).

From each initial order it is given (ordering.py makes them), adjacent swaps, then up to
four iterations of a weighted-median sweep (down on even iterations, up on odd ones,
equal medians swapped on iterations 0 and 1 mod 4), each followed by transposition
repeated until it gains nothing; crossings are counted exactly per layer pair. The best
order of all those passes is iterated further (up to 24 times, stopping after 8 without
gain) and transposed once more. Optionally (small graphs), sifting follows: each node
moved to its best place in its layer, which dot does not do.
"""
# Qt-free: part of the layout, which runs in a child process (tests/test_structure.py).

from __future__ import annotations

from bisect import bisect_left

FIRST_ITERATIONS = 4   # dot's iterations after each initial order (MIN(4, MaxIter))
MAX_ITERATIONS = 24    # dot's MaxIter
MIN_QUIT = 8           # dot's MinQuit: iterations without gain before stopping
CONVERGENCE = 0.995    # dot's Convergence: a gain smaller than this is no gain
MC_SCALE = 256         # dot's scale of positions in a median
BUBBLE_MAX = 64        # wider layers are sorted at once, not bubble-sorted as dot does


class MinCross:
    """Layers to order and what dot keeps while ordering them: each node's position,
    and the crossings between layer r and r + 1 (None once it may have changed). `up`
    and `down` are each node's neighbours in the layer before and after."""

    def __init__(self, up: list[list[int]], down: list[list[int]], n_layers: int,
                 rounds: int | None = None, drops: set[int] = frozenset()):
        self.up, self.down = up, down
        self.drops = drops  # nodes whose neighbour on the left is the phantom (-1)
        self.rounds = rounds  # at most this many rounds of each transposition
        self.sifting = False  # sift once dot's passes are done
        self.layers: list[list[int]] = [[] for _ in range(n_layers)]
        self.position = [0] * len(up)
        self.cached: list[int | None] = [None] * max(0, n_layers - 1)

    # -- counting ---------------------------------------------------------------------------

    def install(self, layers: list[list[int]]) -> None:
        self.layers[:] = [list(layer) for layer in layers]
        for layer in self.layers:
            for k, v in enumerate(layer):
                self.position[v] = k
        self.cached = [None] * len(self.cached)

    def crossings(self) -> int:
        """Crossings between every pair of adjacent layers, from the cache where valid."""
        total = 0
        for r, known in enumerate(self.cached):
            if known is None:
                known = self.cached[r] = layer_crossings(self.layers[r], self.down,
                                                         self.position)
                if self.drops:
                    known += drop_crossings(self.layers[r], self.layers[r + 1], self.down,
                                            self.position, self.drops)
                    self.cached[r] = known
            total += known
        return total

    def _changed(self, r: int) -> None:
        if r < len(self.cached):
            self.cached[r] = None
        if r > 0:
            self.cached[r - 1] = None

    # -- the passes -------------------------------------------------------------------------

    def run(self, starts: list[list[list[int]]], finalists: int = 1) -> int:
        """dot's mincross from each initial order in `starts` (its first passes), then
        its last pass from the best of them (from each of the best `finalists`, keeping
        the best end); leaves the best order in `layers` and returns its crossings."""
        tried = []
        for k, layers in enumerate(starts):
            self.install(layers)
            if self.crossings() > 0:
                self.transpose(False)
            found, kept = self.crossings(), self.saved()
            if found:
                kept, found = self._iterate(FIRST_ITERATIONS, kept, found)
            tried.append((found, -k, kept))  # of equal ones the later first, as dot keeps
            if found == 0:
                break
        tried.sort(key=lambda t: t[:2])
        best, best_crossings = None, None
        for found, _, kept in tried[:finalists]:
            found, kept = self._finish(kept, found)
            if best_crossings is None or found < best_crossings:
                best, best_crossings = kept, found
        self.install(best)
        return best_crossings

    def _finish(self, best, best_crossings: int) -> tuple[int, list[list[int]]]:
        """dot's last pass from `best`, its last transposition, and sifting."""
        self.install(best)
        if best_crossings:
            best, best_crossings = self._iterate(MAX_ITERATIONS, best, best_crossings)
            self.install(best)
        if best_crossings:
            self.transpose(False)
            best_crossings = self.crossings()
        while best_crossings and self.sifting and self.sift():
            self.transpose(False)
            best_crossings = self.crossings()
        return best_crossings, self.saved()

    def sift(self) -> bool:
        """Sifting (Matuszewski, Schönfeld and Molitor), past what dot does: each node
        in turn, most edges first, moved to the place in its layer where its edges cross
        fewest; True if that removed a crossing."""
        up, down, position = self.up, self.down, self.position
        gained = False
        for r, layer in enumerate(self.layers):
            if len(layer) < 2:
                continue
            for v in sorted(layer, key=lambda v: (-len(up[v]) - len(down[v]), v)):
                here = position[v]
                others = layer[:here] + layer[here + 1:]
                cost = best_cost = 0  # v's crossings above all the others, less those
                best_place, cost_here = 0, 0
                for k, w in enumerate(others):  # v moved from above w to below it
                    v_above, w_above = pair_crossings(up, down, position, v, w)
                    cost += w_above - v_above
                    if cost < best_cost:
                        best_cost, best_place = cost, k + 1
                    if k + 1 == here:
                        cost_here = cost
                if best_cost < cost_here:
                    others.insert(best_place, v)
                    layer[:] = others
                    for k, w in enumerate(layer):
                        position[w] = k
                    self._changed(r)
                    gained = True
        return gained

    def saved(self) -> list[list[int]]:
        return [list(layer) for layer in self.layers]

    def _iterate(self, iterations: int, best, best_crossings: int):
        """dot's loop over mincross_step: the best order and its crossings."""
        trying = 0
        for iteration in range(iterations):
            if trying >= MIN_QUIT:
                break
            trying += 1
            self.step(iteration)
            found = self.crossings()
            if found <= best_crossings:
                if found < CONVERGENCE * best_crossings:
                    trying = 0
                best, best_crossings = self.saved(), found
            if found == 0:
                break
        return best, best_crossings

    def step(self, iteration: int) -> None:
        """dot's mincross_step: a median sweep down (even iteration) or up (odd), ties
        broken rightward on iterations 0, 1 (mod 4), then transposition."""
        reverse = iteration % 4 < 2
        n = len(self.layers)
        if iteration % 2 == 0:
            sequence, neighbours = range(1, n), self.up
        else:
            sequence, neighbours = range(n - 2, -1, -1), self.down
        for r in sequence:
            self._reorder(r, neighbours, reverse)
        self.transpose(not reverse)

    def _reorder(self, r: int, neighbours: list[list[int]], reverse: bool) -> None:
        """Sort layer r by its nodes' weighted medians (dot's medians and reorder): a
        node with no neighbour in the layer swept keeps its place, the others are
        bubble-sorted around it, equal medians swapped with `reverse`. A layer wider
        than BUBBLE_MAX is sorted at once (equal medians kept in order, or reversed)."""
        layer, position = self.layers[r], self.position
        values = [median_value(neighbours[v], position) for v in layer]
        if len(layer) > BUBBLE_MAX:
            movable = [k for k, m in enumerate(values) if m is not None]
            keyed = sorted((values[k], -k if reverse else k, layer[k]) for k in movable)
            new = list(layer)
            for k, (_, _, v) in zip(movable, keyed):
                new[k] = v
        else:
            new = _bubbled(list(layer), values, reverse)
        if new != layer:
            layer[:] = new
            for k, v in enumerate(layer):
                position[v] = k
            self._changed(r)

    def transpose(self, reverse: bool) -> None:
        """dot's transpose: swap adjacent nodes of a layer where that crosses fewer edges
        (or, with `reverse`, as many but some), over the layers that may still gain,
        until a whole round gains nothing."""
        candidate = [True] * len(self.layers)
        rounds = 0
        while self.rounds is None or rounds < self.rounds:
            rounds += 1
            delta = 0
            for r in range(len(self.layers)):
                if candidate[r]:
                    delta += self._transpose_layer(r, reverse, candidate)
            if delta < 1:
                return

    def _transpose_layer(self, r: int, reverse: bool, candidate: list[bool]) -> int:
        layer, position, up, down = self.layers[r], self.position, self.up, self.down
        candidate[r] = False
        # the neighbours' positions, which no swap in this layer moves
        sides = [(_places(up[v], position), _places(down[v], position)) for v in layer]
        gain = 0
        for k in range(len(layer) - 1):
            (av, bv), (aw, bw) = sides[k], sides[k + 1]
            c0, c1 = pair_counts(av, aw)
            d0, d1 = pair_counts(bv, bw)
            c0 += d0
            if c0 == 0:
                continue
            c1 += d1
            if c1 < c0 or (reverse and c1 == c0):
                v, w = layer[k], layer[k + 1]
                layer[k], layer[k + 1] = w, v
                position[v], position[w] = k + 1, k
                sides[k], sides[k + 1] = sides[k + 1], sides[k]
                gain += c0 - c1
                self._changed(r)
                candidate[r] = True
                if r > 0:
                    candidate[r - 1] = True
                if r + 1 < len(candidate):
                    candidate[r + 1] = True
        return gain


def median_value(near: list[int], position: list[int]) -> int | None:
    """dot's mval: MC_SCALE times the weighted median position of `near`, as an int
    (dot's reorder compares it truncated), None for no neighbours (a position may be
    -1: the lanes' phantom node, above every layer)."""
    if not near:
        return None
    if len(near) == 1:
        return MC_SCALE * position[near[0]]
    places = sorted(MC_SCALE * position[u] for u in near)
    if len(places) == 2:
        return (places[0] + places[1]) // 2
    return int(weighted_median(places))


def _bubbled(layer: list[int], values: list[int], reverse: bool) -> list[int]:
    """dot's reorder of one layer: a bubble sort of the nodes with a median (value >= 0)
    that steps over the others, left in place."""
    end = len(layer)
    for _ in range(len(layer)):
        lp, swapped = 0, False
        while lp < end:
            while lp < end and values[lp] is None:
                lp += 1
            if lp >= end:
                break
            rp = lp + 1
            while rp < end and values[rp] is None:
                rp += 1
            if rp >= end:
                break
            if values[lp] > values[rp] or (reverse and values[lp] == values[rp]):
                layer[lp], layer[rp] = layer[rp], layer[lp]
                values[lp], values[rp] = values[rp], values[lp]
                swapped = True
            lp = rp
        if not swapped:  # sorted, with no two equal to swap: no later pass would swap
            break
        if not reverse:
            end -= 1
    return layer


def weighted_median(sorted_positions: list[int]) -> float:
    """dot's median value of a node's neighbour positions: the median of an odd count,
    the mean of two, and of an even count the two middle ones weighted by how spread
    each side is (the middle one nearer the tighter side counts more)."""
    m = len(sorted_positions)
    mid = m // 2
    if m % 2 == 1:
        return float(sorted_positions[mid])
    if m == 2:
        return (sorted_positions[0] + sorted_positions[1]) / 2
    left = sorted_positions[mid - 1] - sorted_positions[0]
    right = sorted_positions[-1] - sorted_positions[mid]
    if left == right:
        return (sorted_positions[mid - 1] + sorted_positions[mid]) / 2
    return (sorted_positions[mid - 1] * right + sorted_positions[mid] * left) / (left + right)


def _places(near: list[int], position: list[int]) -> list[int]:
    """The sorted positions of `near`."""
    if len(near) == 1:
        return [position[near[0]]]
    return sorted([position[u] for u in near])


def pair_crossings(up: list[list[int]], down: list[list[int]], position: list[int],
                   v: int, w: int) -> tuple[int, int]:
    """Crossings between the edges of v and of w (both sides) with v drawn above w, and
    with w above v."""
    above, below = pair_counts(_places(up[v], position), _places(up[w], position))
    more_above, more_below = pair_counts(_places(down[v], position),
                                         _places(down[w], position))
    return above + more_above, below + more_below


def pair_counts(sa: list[int], sb: list[int]) -> tuple[int, int]:
    """Of the pairs (a, b) of two sorted lists, how many have a > b and how many a < b
    (the crossings of two nodes' edges to the same layer, either node above), merged."""
    if not sa or not sb:
        return 0, 0
    n = len(sb)
    if len(sa) == 1 and n == 1:
        a, b = sa[0], sb[0]
        return (1, 0) if a > b else (0, 1) if a < b else (0, 0)
    above = below = lower = higher = 0  # b's below a; b's up to a
    for a in sa:
        while lower < n and sb[lower] < a:
            lower += 1
        while higher < n and sb[higher] <= a:
            higher += 1
        above += lower
        below += n - higher
    return above, below


def layer_crossings(layer: list[int], down: list[list[int]], position: list[int]) -> int:
    """Crossings between `layer` and the next one: inversions of the targets' positions
    read in the layer's order (a Fenwick tree, as Barth, Jünger and Mutzel count them)."""
    targets = []
    for v in layer:
        near = down[v]
        if len(near) == 1:
            targets.append(position[near[0]])
        elif near:
            targets.extend(sorted(position[w] for w in near))
    if len(targets) < 2:
        return 0
    size = max(targets) + 2  # a position may be -1 (the lanes' phantom node)
    tree = [0] * (size + 1)
    count = 0
    for seen, x in enumerate(targets):
        i, below = x + 2, 0
        while i > 0:
            below += tree[i]
            i -= i & -i
        count += seen - below
        i = x + 2
        while i <= size:
            tree[i] += 1
            i += i & -i
    return count


def drop_crossings(layer: list[int], following: list[int], down: list[list[int]],
                   position: list[int], drops: set[int]) -> int:
    """Crossings between the edges from `layer` to the next layer, `following`, and the
    edges into that layer's `drops` from the phantom node (position -1, ordering.lifted):
    an edge from -1 to a drop crosses every edge whose end is above the drop's."""
    places = [position[d] for d in following if d in drops]
    if not places:
        return 0
    ends = sorted(position[w] for v in layer for w in down[v])
    return sum(bisect_left(ends, p) for p in places)
