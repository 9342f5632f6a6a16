"""Independent checks of gradients: the central difference, 50-digit references,
TensorFlow's `tf.GradientTape`, and check-engine for a user's own engine."""
