from hub4eval.cli import main

main()
