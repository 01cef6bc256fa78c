from importlib.resources import files
def data_dir():
    return files("errcat") / "_data"
