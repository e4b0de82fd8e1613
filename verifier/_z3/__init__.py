"""The Z3 back end: rule expressions compiled to SMT terms over bit-vectors and integers."""
