from greenlint.cli import entry_point

if __name__ == "__main__":  # not when a spawned worker process imports the parent's main module
    entry_point()
