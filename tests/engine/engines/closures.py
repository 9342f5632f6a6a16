"""A correct engine in micrograd's style (parents in a set, a `_backward` closure per
node, an iterative topological sort), written for the tests: each test breaks one line
of it. Every rule's line is unique, so that a test can replace exactly one."""

import math


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad  # add-self
            other.grad += out.grad  # add-other
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad  # mul-self
            other.grad += self.data * out.grad  # mul-other
        out._backward = _backward
        return out

    def __pow__(self, k):
        if isinstance(k, Value):  # an exponent that is a Value: x**y, for x > 0
            out = Value(self.data ** k.data, (self, k), "pow")

            def _backward():
                self.grad += k.data * self.data ** (k.data - 1) * out.grad  # pow-base
                k.grad += out.data * math.log(self.data) * out.grad  # pow-exponent
            out._backward = _backward
            return out
        out = Value(self.data ** k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad  # pow
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad  # tanh
        out._backward = _backward
        return out

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,), "relu")

        def _backward():
            self.grad += (1.0 if self.data > 0 else 0.0) * out.grad  # relu
        out._backward = _backward
        return out

    def exp(self):
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad  # exp
        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad  # log
        out._backward = _backward
        return out

    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data))
        out = Value(s, (self,), "sigmoid")

        def _backward():
            self.grad += s * (1 - s) * out.grad  # sigmoid
        out._backward = _backward
        return out

    def sin(self):
        out = Value(math.sin(self.data), (self,), "sin")

        def _backward():
            self.grad += math.cos(self.data) * out.grad  # sin
        out._backward = _backward
        return out

    def cos(self):
        out = Value(math.cos(self.data), (self,), "cos")

        def _backward():
            self.grad += -math.sin(self.data) * out.grad  # cos
        out._backward = _backward
        return out

    def sqrt(self):
        r = math.sqrt(self.data)
        out = Value(r, (self,), "sqrt")

        def _backward():
            self.grad += 0.5 / r * out.grad  # sqrt
        out._backward = _backward
        return out

    def abs(self):
        out = Value(abs(self.data), (self,), "abs")
        sign = 1.0 if self.data > 0 else -1.0 if self.data < 0 else 0.0

        def _backward():
            self.grad += sign * out.grad  # abs
        out._backward = _backward
        return out

    def __rpow__(self, base):
        return Value(base) ** self

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other ** -1

    def __radd__(self, other):
        return self + other

    def __rsub__(self, other):
        return (-self) + other

    def __rmul__(self, other):
        return self * other

    def __rtruediv__(self, other):
        return self ** -1 * other

    def backward(self):
        topo, seen, stack = [], set(), [(self, False)]
        while stack:  # sort
            node, done = stack.pop()
            if done:
                topo.append(node)
            elif node not in seen:
                seen.add(node)
                stack.append((node, True))
                stack.extend((p, False) for p in node._prev)
        self.grad = 1.0  # seed
        for node in reversed(topo):
            node._backward()
