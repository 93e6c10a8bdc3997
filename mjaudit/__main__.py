from mjaudit.cli import run

run()
