from .gambler_ai import GamblerAI
