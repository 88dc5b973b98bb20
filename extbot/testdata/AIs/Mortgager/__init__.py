# Monopyly-style AIs written for gopoly's tests: buyers on credit.
from .mortgager_ai import MortgagerAI, OverreachAI
