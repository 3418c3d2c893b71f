from companybrain.surfaces.cli.main import main

main()
