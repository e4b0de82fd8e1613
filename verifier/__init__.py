"""The verifier: rules compiled to Z3, properties proved, counterexamples replayed."""
