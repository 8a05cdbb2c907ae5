from deckbuilder.cli import main

main()
