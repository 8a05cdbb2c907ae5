"""The search for better swaps: candidates raced on paired seeds against the deck itself."""
