from hub4eval.cli import main

if __name__ == "__main__":  # not when a spawned worker process (--jobs, where fork is missing) imports it
    main()
