# setup: from class_body_missing import *\nimport class_body_missing as shown\nclass Space(dict):\n    __missing__ = staticmethod(shown.LOG.append)\nclass Meta(type):\n    @classmethod\n    def __prepare__(cls, name, bases):\n        return Space(held=shown.LOG)\nshown.Meta = Meta
# A class body whose namespace (a metaclass's __prepare__, holding a list) is a dict subclass with a C
# __missing__: a name the body only reads (LOAD_NAME, a READS line) appends to that list.
LOG = []


def main():
    class Body(metaclass=Meta):
        undefined_name
        count = 1
        other = 2
    print(len(Body.held), Body.count)
