# A file another program writes into the system temp dir during the run is never touched.
import os


def main():
    path = os.environ.get("STEPWISE_OUTSIDER")
    if path:
        with open(path, "w") as stream:
            stream.write("not yours")
    return 1
