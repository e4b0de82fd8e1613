"""How the properties of :mod:`verifier.properties` are proved.

``decision``: what deciding a property takes and gives.  ``cones``: proofs and witnesses
from the facts that bear on a claim.  ``situations`` and ``vacuity``: the situations a
claim is judged on, its premises, and whether they can occur.  ``unrolling`` and
``ranking``: an auction stage unrolled call by call, and bounds on its calls.
``auction_properties`` and ``deal_properties``: the generic properties' proofs.
``claims``: the proofs of claims and properties written in the rules language.
``readings``: deals on which two readings of a rule differ.
"""
